"""Reading and writing a whole campaign, sealed or open, behind one interface."""
