# This file is yours: the template created it once and never touches it again.
"""Your eager math for the custom ops of shape_ops, one module per op."""
