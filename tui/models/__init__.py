"""Headless view models: plain functions from protocol messages to what the widgets show.

Nothing here imports textual, so each model is unit-tested with plain engine views.
"""
