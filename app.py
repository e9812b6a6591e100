"""十三水 referee — Streamlit app (placeholder until the app issue lands)."""

import streamlit as st

from referee import load_ruleset
from referee.cli import check_json
from referee.errors import InputError

st.set_page_config(page_title="十三水 referee", page_icon="🂡")
st.title("十三水 referee")
rules_name = st.selectbox("Rules", ["classic", "classic-regional", "popular", "fuzhou", "shisandao"])
text = st.text_input("Arrangement (HEAD | MIDDLE | TAIL)", "2c 3d 5h | 6s 6h 8c 9d Tc | Js Jh Jd 4c 4d")
try:
    result = check_json(text, load_ruleset(rules_name))
except InputError as err:
    st.error(str(err))
else:
    st.write("Foul: " + (result["foul_reason"] or "no"))
    st.table([{"row": r["row"], "cards": " ".join(r["cards"]), "category": r["category"]} for r in result["rows"]])
    if result["special"]:
        st.success(f"Special hand: {result['special']}")
