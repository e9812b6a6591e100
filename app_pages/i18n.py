"""Names of rows, categories, special hands and seats in English, 中文, or both: the app's
settings labels, over :mod:`referee.words` (the one table the command line uses too).

>>> name("flush", "zh"), name("flush", "en"), name("flush", "both")
('同花', 'flush', '同花 flush')
>>> name("no_such_key", "zh")
'no_such_key'
"""

from __future__ import annotations

from referee.words import Language, name

__all__ = ["LANGUAGES", "Language", "name", "sentence"]

LANGUAGES: dict[Language, str] = {"both": "中文 + English", "zh": "中文", "en": "English"}


def sentence(text: str) -> str:
    """A message for the page: the referee's errors start in lower case (they follow "error: ").

    >>> sentence("the file is empty")
    'The file is empty'
    """
    return text[:1].upper() + text[1:]
