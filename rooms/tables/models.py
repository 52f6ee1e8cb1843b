"""Tables, seats, hands and their action logs."""
