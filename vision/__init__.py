"""Pure image functions over numpy arrays; ``capture`` is the only module that opens cameras."""
