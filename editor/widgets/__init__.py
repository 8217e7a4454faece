"""Small widgets shared by the panels and the play screens."""
