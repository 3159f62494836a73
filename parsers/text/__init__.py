"""The machinery of the text rooms: a room's Lark grammar read into line kinds
(`lines.py`, `common.lark`, `grammar_cache.py`), the one pass over a hand's lines
(`classify.py`, `tokens.py`), the shared reader that handles them (`line_reader.py`, its verb
table `verbs.py`), the order of its sections (`order.py`), and `TextRoom`, the base of every
room read that way (`room.py`). The rooms themselves are in `studdraw.parsers.rooms`.
"""
