"""The machinery of the XML rooms (iPoker, Merge, Boss Media): defusedxml's parser fed in
chunks (`reader.py`) and `XmlRoom`, which cuts each hand element and reads it back (`room.py`).
The rooms themselves are in `studdraw.parsers.rooms`.
"""
