import sys
from pathlib import Path

# Shared test data modules (rounds.py) live beside the tests.
sys.path.insert(0, str(Path(__file__).parent))
