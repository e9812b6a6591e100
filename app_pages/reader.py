"""The photo reader, loaded once per server process (the ONNX sessions are shared by every tab)."""

from __future__ import annotations

from typing import Any

import streamlit as st


@st.cache_resource(show_spinner="Loading the card detector…")
def _load() -> Any:
    from vision.detector import CardDetector

    return CardDetector().detect


def detector() -> Any:
    """The card detector (``image -> Detections``), or why there is none, as a sentence for the page."""
    try:
        from vision.detector import CardDetector
        from vision.pipeline import read_photo  # noqa: F401
    except ImportError as err:
        return f"The photo reader is not installed in this copy ({err.name}): type each player's rows below."
    if not CardDetector.available():
        return ("The card detector's model files are not installed (models/), so the cards were not read: "
                "type each player's rows below.")
    return _load()
