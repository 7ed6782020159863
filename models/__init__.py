"""Shipped ONNX models with their model cards, and (in ``training/``) how they are made."""
