"""This node's part in a cluster: room ownership and leases, forwarding, presence across nodes,
revocations.
"""
