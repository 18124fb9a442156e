"""Agreement among the table's nodes: a sans-IO Raft core (:mod:`net.agreement.raft`)."""
