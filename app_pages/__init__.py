"""The Streamlit app's pages (``score``, ``check``, ``history``) and their helpers.

Pages are thin: they read widgets and call the rules engine, the photo pipeline and
:mod:`referee.storage`; everything that can be a plain function lives in a helper
module here (``table``, ``images``, ``glyphs``, ``i18n``) and is tested without Streamlit.
"""
