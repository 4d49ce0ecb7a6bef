"""`gridjudge verify`: a problem setter's check of a problem package."""
