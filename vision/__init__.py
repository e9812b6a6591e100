"""Card detection from photos (filled in by the detector work)."""
