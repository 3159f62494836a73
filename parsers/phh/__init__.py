"""The PHH format's machinery, shared by the PHH room (`studdraw.parsers.rooms.phh`) and the PHH
writer (`studdraw.pipeline.phh`): PHH actions turned into events (`play.py`) and the format's
vocabulary (`vocabulary.py`: variant codes, money, cards, player order).
"""
