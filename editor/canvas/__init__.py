"""The canvas: scene, view, items, painting, overlays, snapping, rendering to files.

The scene mirrors the document and forwards pointer and key events to the
active tool through ``interaction.Interaction``; it never imports the tools.
"""
