"""The Streamlit dashboard: app.py and its pages in views/, served by `studdraw dashboard`."""
