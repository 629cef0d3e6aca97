"""Edits of a model, each making a new model and undoable: muscle edits for amputation modelling
(``muscles``) and the seed's transtibial amputation built from them (``transtibial``). An edit records what it
changed in the model file's own form, so this package sits on the file schema (``engine.io.model_schema``)."""
