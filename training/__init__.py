"""How the card detector's models are made and measured: the training recipe (``training.train``) and its
data, the real-photo sets, the recovery of weights from ONNX exports, the readers' calibration and the
evaluations (``training.evaluate``, ``training.evaluate_real``, ``training.evaluate_photo``).

The runtime (``vision/``: photo -> detections -> layout -> settlement) never imports this package, and
nothing here is needed by the app or the ``referee`` CLI."""
