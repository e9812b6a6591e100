"""十三水 referee — the Streamlit app: ``streamlit run app.py``.

The picture frame around three pages (score a table, check an arrangement, session
history) that share this tab's settings (the sidebar) and one database.
"""

from pathlib import Path

import streamlit as st

from app_pages import state
from app_pages.words import tr

st.set_option("client.toolbarMode", "minimal")  # no developer menu or "Deploy" button at the card table
st.set_page_config(page_title="十三水 referee", page_icon="🂡", layout="centered",
                   initial_sidebar_state="auto")
state.init()
state.style()
state.sidebar()
PAGES = Path(__file__).resolve().parent / "app_pages"  # absolute: the app may be started from anywhere
lang = state.language()
page = st.navigation([
    st.Page(PAGES / "score.py", title=tr("Score a table", "计分", lang), icon=":material/photo_camera:",
            default=True, url_path="score"),
    st.Page(PAGES / "check.py", title=tr("Check a hand", "查牌", lang), icon=":material/playing_cards:",
            url_path="check"),
    st.Page(PAGES / "history.py", title=tr("History", "记录", lang), icon=":material/history:", url_path="history"),
])
page.run()
