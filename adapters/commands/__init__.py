"""The `rulebook` command line's sub-commands, one module per group (ask, index, eval, report...)."""
