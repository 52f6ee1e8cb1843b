"""十三水 Thirteen Cards: rules (rules.py), the engine (engine.py), settlement (settle.py)."""
