"""百人三公 Hundred-player San Gong: a house- or player-banked game (family "banker") of three-card hands."""
