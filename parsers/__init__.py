"""The parsers: every room's hand histories read into room-neutral hand records.

Some of its modules may be installed compiled by mypyc beside their sources (setup.py says
which). STUDDRAW_PURE=1 in the environment makes every process import the Python sources
instead, as in `studdraw.pipeline`; so does a checkout until its compiled modules are all in
place (`_build.py`).
"""

from ._build import sources_only

if sources_only():
    from ._sources import import_sources_only

    import_sources_only(__name__)
