"""Agreement among the table's nodes: a sans-IO Raft core (:mod:`net.agreement.raft`, with its log,
messages and tracker) and its trio driver (:mod:`net.agreement.driver`)."""
