"""agentkit served over MCP (the Model Context Protocol) through the official Python SDK (`mcp`).

    python3 dev.py mcp [--port N] [--stdio]

The server is generic over a list of tools that describe themselves (name,
description, parameters, read-only/destructive flags, and a `call` that takes
the JSON arguments and returns the answer text): agentkit's `mcp_tools(mesh)`.
It publishes each as an MCP tool with an input schema built from its
parameters and answers every call with the tool's text.
"""

from mcp_server.server import build_server, input_schema

__all__ = ["build_server", "input_schema"]
