"""The machinery of the text rooms: a room's Lark grammar read into line kinds
(`lines.py`, `common.lark`, `grammar_cache.py`), the one pass over a hand's lines
(`line_reader.py`, `tokens.py`), the order of its sections (`order.py`), and `TextRoom`, the base
of every room read that way (`room.py`). The rooms themselves are in `studdraw.parsers.rooms`.
"""
