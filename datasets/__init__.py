"""Synthetic table scenes with full ground truth."""
