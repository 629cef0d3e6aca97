"""Ground-contact candidates generated from the model: under each foot's sole and on a prosthesis's
ground-facing side (the seed's Fig. 11), calibrated against the floor (``automatic.automatic_contacts``)."""
