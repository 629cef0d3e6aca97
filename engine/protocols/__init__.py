"""Marker protocols on anatomical landmarks: any lab's markers placed on any model that has the landmarks.

``description`` (landmarks, their placements on a model family, protocols), ``labels`` (a trial's labels
reduced to side and words), ``matching`` (labels to a protocol's markers, confirmed by geometry),
``joint_centres`` (virtual markers: Harrington's hip, knee and ankle mid-points), ``fitting`` (the protocol's
markers put on a model, scaled and placed on a static trial or the first frames). Their files are
``engine.io.protocol_file``'s; the built-in ones are in ``resources/protocols``.
"""
