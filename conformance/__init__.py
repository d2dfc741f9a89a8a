"""The guide's tool-behaviour claims, checked through MCP alone.

    python3 dev.py conform --url URL [--header 'Authorization: Bearer …'] [--namespace NS]

Each check calls tools with JSON arguments and reads their text answers; it
never imports agentkit, so the same suite runs against agentkit's own server
(`dev.py mcp`) and against a MeshWeaver deployment. A check names the claim it
confirms with `# verifies: <claim id>` above its asserts, like every other
check of the guide, and the claims page counts it as checked over MCP.
"""
