"""The pipeline: rules engine, normalize, store, analytics and the command line.

Some of its modules may be installed compiled by mypyc beside their sources (setup.py says
which). STUDDRAW_PURE=1 in the environment makes every process import the Python sources
instead: to compare the two builds, or to read a traceback with the sources' lines; so does a
checkout until its compiled modules are all in place (`studdraw.parsers._build`).
"""

from studdraw.parsers._build import sources_only

if sources_only():
    from studdraw.parsers._sources import import_sources_only

    import_sources_only(__name__)
