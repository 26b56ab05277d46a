"""The hall: the rooms a node keeps and the one write path every change takes; assembled from
parts.
"""
