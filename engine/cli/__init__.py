"""The ``hybrid`` command line: the same engine functions the application uses, without a screen."""
