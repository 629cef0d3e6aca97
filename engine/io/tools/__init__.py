"""OpenSim tool setups run as OpenSim runs them (``hybrid run``): which tool a document holds (``documents``), the
InverseDynamicsTool and AnalyzeTool readers (``id_setup``, ``analyze_setup``), the motion both read
(``motion_inputs``), the runs (``runs``) and setups written from an analysis's settings (``write_setups``)."""
