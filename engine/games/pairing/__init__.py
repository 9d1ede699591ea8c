"""The pairing solitaires: Eiffel Tower and its relatives, all played by one rules module."""
