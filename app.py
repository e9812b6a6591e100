"""十三水 referee — the Streamlit app: ``streamlit run app.py``.

The picture frame around three pages (score a table, check an arrangement, session
history) that share this tab's settings (the sidebar) and one database.
"""

from pathlib import Path

import streamlit as st

from app_pages import state

st.set_option("client.toolbarMode", "minimal")  # no developer menu or "Deploy" button at the card table
st.set_page_config(page_title="十三水 referee", page_icon="🂡", layout="centered",
                   initial_sidebar_state="auto")
state.init()
state.style()
state.sidebar()
PAGES = Path(__file__).resolve().parent / "app_pages"  # absolute: the app may be started from anywhere
page = st.navigation([
    st.Page(PAGES / "score.py", title="Score a table", icon=":material/photo_camera:", default=True),
    st.Page(PAGES / "check.py", title="Check a hand", icon=":material/playing_cards:"),
    st.Page(PAGES / "history.py", title="History", icon=":material/history:"),
])
page.run()
