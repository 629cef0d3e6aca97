"""EMG: processing raw signals into excitations, activation dynamics, and the comparison of estimated muscle
forces with EMG by gait phase."""
