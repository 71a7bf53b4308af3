//! The Russian banking game (RULES.md, "Variant 2 — bank").
