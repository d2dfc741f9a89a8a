"""The framework's own [Description] texts of the tools agentkit models, verbatim.

Copied from Systemorph/MeshWeaver at the pinned commit (framework/citations.toml [pin]) so that a
page can show exactly what a model is told. Each entry: method name -> (tool description,
{parameter name: (C# type, C# default or None, parameter description)}), in declaration order.
"""

from __future__ import annotations

ToolText = tuple[str, dict[str, tuple[str, "str | None", str]]]

# src/MeshWeaver.AI/MeshPlugin.cs
MESH_TEXTS: dict[str, ToolText] = {
    'Get': (
        'Retrieves a node or content from the mesh by path. Paths are relative to current context; use @/ prefix for absolute paths. Supports Unified Path prefixes: content/, data/, schema/, model/, collection/, area/.',
        {
            'path': ('string', None,
                'Path to data. Relative: @content/file.docx, @MyChild/*. Absolute: @/OrgA/Doc, @/OrgA/content/file.docx. For spaces: "@content/My File.docx"'),
        },
    ),
    'Search': (
        "Searches the mesh using GitHub-style query syntax. Returns {count, limit, truncated, results:[{path,name,nodeType}]} — when 'truncated' is true there are more matches than returned; narrow the query or raise 'limit'.",
        {
            'query': ('string', None,
                "Query string (e.g., 'nodeType:Agent', 'path:ACME scope:descendants', 'name:*sales*')"),
            'basePath': ('string?', 'null',
                'Base path to search from (e.g., @graph). Empty for all.'),
            'limit': ('int', '50',
                'Maximum number of results to return. Default 50, max 200.'),
        },
    ),
    'NavigateTo': (
        'Takes the user to a node, doc, or page in the UI. Resilient (resolves the best match even when the path is imperfect) and honest (NEVER claims to open a place that doesn\'t exist — if nothing matches it says so and lists the closest candidates). Pass a path (@/Doc/AI/ModelProviderSettings) or plain words describing where to go ("model settings").',
        {
            'path': ('string', None,
                'A path (@/Doc/AI/ModelProviderSettings), or what the user is looking for in words.'),
        },
    ),
    'Create': (
        "Creates a new node in the mesh. ALWAYS set the 'name' property to a human-readable display name.",
        {
            'node': ('string', None,
                'JSON MeshNode with required: id, name, nodeType, namespace. Example: {"id":"my-page","namespace":"MyOrg","name":"My Page","nodeType":"Markdown"}'),
        },
    ),
    'Update': (
        "Full replacement update of existing nodes. ALWAYS Get the node first, modify the returned object, then send it back here unchanged-except-for-edits. The 'content' field MUST be present and non-null — null content is rejected and the response will include the expected schema. Prefer Patch for small changes.",
        {
            'nodes': ('string', None,
                'JSON array of complete MeshNode objects fetched via Get and then modified'),
        },
    ),
    'Patch': (
        "Partial update of a single node. Only the keys present in 'fields' are changed; omitted keys preserve existing values. 'content' deep-merges (RFC 7396): nested keys you send are updated, omitted keys are kept, a null member deletes that one key — so you can change a single content field without resending the rest. Setting the whole 'content' to null is rejected (with the schema). Prefer this over Update for small edits like icon/name/category.",
        {
            'path': ('string', None,
                'Path to the node (e.g., @User/rbuergi/my-node)'),
            'fields': ('string', None,
                'JSON object with ONLY the fields to change. Examples: {"icon": "<svg>...</svg>"}, {"name": "New Name"}, {"content":{"logo":"https://…"}} (deep-merges into existing content). Never set \'content\' to null.'),
        },
    ),
    'EditContent': (
        "Anchored text edit on a node's content (Markdown body or Code source). Replaces oldText with newText — pass just the snippet to change plus enough surrounding context to make it unique, instead of re-sending the whole document through Patch. Fails with a descriptive error when the text isn't found or isn't unique. Preferred over Patch for any edit inside a long document or source file.",
        {
            'path': ('string', None,
                'Path to the node (e.g., @User/rbuergi/my-doc or @ACME/Story/Source/Story.cs)'),
            'oldText': ('string', None,
                'The exact text to replace — copy it verbatim from Get, including whitespace and line breaks. Must match exactly once (or set replaceAll).'),
            'newText': ('string', None,
                'The replacement text.'),
            'replaceAll': ('bool', 'false',
                'Replace every occurrence instead of requiring a unique match. Default: false.'),
        },
    ),
    'Delete': (
        'Deletes nodes from the mesh by path. Recursive: deleting a parent removes all descendants — pass the subtree root, no need to enumerate children.',
        {
            'paths': ('string', None,
                'JSON array of path strings to delete'),
        },
    ),
    'Move': (
        "Moves a node and its descendants to a new path. Equivalent to the Move menu item. Requires Delete on the source namespace and Create on the target. Source and target are full paths (namespace + id), e.g. 'OrgA/Child' -> 'OrgB/Child'.",
        {
            'sourcePath': ('string', None,
                'Current path of the node (e.g., @OrgA/Child)'),
            'targetPath': ('string', None,
                'New path for the node (e.g., @OrgB/Child)'),
        },
    ),
    'Copy': (
        'Copies a node and all its descendants to a target namespace. Equivalent to the Copy menu item. Source ids are preserved; paths are rewritten under the target namespace.',
        {
            'sourcePath': ('string', None,
                'Current path of the node to copy (e.g., @OrgA/Child)'),
            'targetNamespace': ('string', None,
                'Target namespace to copy under (e.g., @OrgB)'),
            'force': ('bool', 'false',
                'Overwrite existing nodes at the target. Default: false (skip if any target path already exists).'),
        },
    ),
    'GetDiagnostics': (
        "Returns compilation diagnostics for a NodeType or an instance of one. Status is 'Ok' when the type compiled cleanly, 'Error' with a detailed message when it failed, or 'Unknown' when no compile has happened yet. Use this after creating/updating a NodeType to verify it actually compiles — a NodeType that doesn't compile is not 'done'.",
        {
            'path': ('string', None,
                'Path to a NodeType (e.g., @Systemorph/SocialMedia/Profile) or to any instance of one'),
        },
    ),
    'Recycle': (
        "Recycles the hub at the given path by posting DisposeRequest. Forces a fresh hub initialization on the next access — use this after fixing a broken NodeType, after editing the `sources` list, or whenever a grain is stuck. Returns {status:'Recycled', path}. Wait ~100ms before the next access so the grain teardown completes.",
        {
            'path': ('string', None,
                "Path to the node (e.g., @Systemorph/SocialMedia/Profile). Use the NodeType path to recycle the whole type; use an instance path to recycle just that instance's hub."),
        },
    ),
}

# src/MeshWeaver.AI/Plugins/ContentCollectionPlugin.cs
CONTENT_COLLECTION_TEXTS: dict[str, ToolText] = {
    'UploadContent': (
        "Uploads text content (SVG, markdown, JSON, CSS, etc.) to a node's content collection. Use for storing diagrams, images (SVG), stylesheets, or any text-based files alongside a node.",
        {
            'nodePath': ('string', None,
                'Canonical path to the node that owns the collection — use the MeshNode\'s `path` property, NOT its `name`. Use @/full/path for absolute or @relative/path relative to the current context. Example: @/PartnerRe/AIConsulting or @FinalReport. If you only know the display name, call Search(\'name:"..."\') first and use the path field of the match.'),
            'filePath': ('string', None,
                "File name/path within the collection (e.g., 'diagram.svg', 'images/architecture.svg')"),
            'content': ('string', None,
                'The text content to upload (SVG markup, markdown, JSON, etc.)'),
            'collectionName': ('string', 'ContentCollectionsExtensions.DefaultCollectionName',
                "Collection name (default: 'content')"),
        },
    ),
    'SearchChunks': (
        'Semantic search over INDEXED content chunks — the chunk-level companion to the node `Search`. Where node search resolves a hit up to its Document node and drops the chunk position, this returns the matching chunks themselves WITH their (collectionPath, filePath, chunkIndex) so you can read the exact window or step through neighbours with get_chunk. Use this to FIND relevant passages and gather context; use Get on the Document for whole-document reads (e.g. table extraction). Scope it two ways: anchored (the `scope` node path plus each ANCESTOR-prefix collection), or targeted by putting `namespace:<node>/<collection>` (with optional `scope:subtree|exact|ancestorsandself`) in the query to search ONE collection — `scope:subtree` (the default when a namespace is given) checks only that collection and anything nested under it. Returns {count, results:[{documentPath, collectionPath, filePath, chunkIndex, rank, snippet}]}.',
        {
            'query': ('string', None,
                'Free-text query (matched semantically against indexed chunk text — 1000-char windows, 150-char overlap). May also carry `namespace:<node>/<collection>` and `scope:subtree|exact|ancestorsandself` to target one collection.'),
            'scope': ('string?', 'null',
                "Node path to anchor the search at — this path AND each ancestor prefix are searched (e.g. 'ACME/Reports'). Defaults to the agent's current context; ignored when the query carries a `namespace:` token."),
            'limit': ('int', '20',
                'Maximum number of chunk hits to return (1-200, default 20). Not deduped by file — chunk-level hits are the point.'),
        },
    ),
    'GetChunk': (
        "Reads ONE indexed content chunk by its 0-based index within a file, with prev/next links so you can step through the file's chunk sequence. Use after search_chunks (which gives you the collectionPath/filePath/chunkIndex of a hit) to read the full window and walk to adjacent chunks. Returns {found, collectionPath, filePath, chunkIndex, text, prevIndex, nextIndex, totalChunks} — prevIndex is null at index 0, nextIndex is null at the last chunk.",
        {
            'collectionPath': ('string', None,
                "The content collection path the chunk belongs to (the 'collectionPath' from a search_chunks hit)."),
            'filePath': ('string', None,
                "The file path within the collection (the 'filePath' from a search_chunks hit)."),
            'chunkIndex': ('int', None,
                "0-based chunk index within the file (the 'chunkIndex' from a search_chunks hit, or a prevIndex/nextIndex to step)."),
        },
    ),
}

# src/MeshWeaver.Mcp/McpMeshPlugin.cs
MCP_TEXTS: dict[str, ToolText] = {
    'Get': (
        "Retrieves a node or a resource attached to a node by path. Returns JSON for nodes/data/schemas, or raw file bytes (JSON-escaped) for content-collection files.\n\nPath shapes:\n  • `@Node/Path`               — the MeshNode itself (metadata + Content)\n  • `@Node/Path/*`             — immediate children of the node\n  • `@Node/Path/data/`         — node Content as structured JSON (whole model)\n  • `@Node/Path/data/Type/id`  — one entity from the node's data collection\n  • `@Node/Path/schema/`       — JSON Schema of the node's Content type\n  • `@Node/Path/schema/Type`   — schema for a specific type\n  • `@Node/Path/model/`        — full data model with all registered types\n  • `@Node/Path/layoutAreas/`  — list of layout areas on the node\n  • `@Node/Path/area/Name`     — that layout area's rendered payload\n  • `@Node/Path/content/file.ext`            — file from the 'content' collection\n  • `@Node/Path/content/subfolder/file.ext`  — file from a nested path\n  • `@Node/Path/{collection}/file.ext`       — file from a NAMED collection (e.g. 'Files/', 'assets/')\n  • `@Node/Path/collection/`                 — list of collection configs on the node\n  • `@Node/Path/collection/name1,name2`      — specific collection configs\nLegacy colon form `path/prefix:value` still works for backward compatibility.",
        {
            'path': ('string', None,
                "Path to data. Examples:\n  @graph/org1                                   (node)\n  @Agent/*                                      (children)\n  @Systemorph/FutuRe/EuropeRe/content/LargeClaims.xlsx  (file from 'content' collection)\n  @Doc/Architecture/content/icon.svg            (file)\n  @Cornerstone/schema/TypeName                  (schema)\n  @Cornerstone/model/                           (full model)"),
        },
    ),
    'Upload': (
        'Uploads raw file bytes into a node\'s content collection — the write-side mirror of `Get` for content-collection files. Use this to attach images, documents, or any binary asset to a node (e.g. an organisation logo or an Excel input file for a script).\n\nPath shapes (must include a collection segment + filename):\n  • `@Node/Path/content/file.ext`            — write into the default \'content\' collection\n  • `@Node/Path/content/subfolder/file.ext`  — nested path within the collection\n  • `@Node/Path/{collection}/file.ext`       — write into a named collection (e.g. \'Files/\', \'assets/\')\n\nThe target collection must exist on the node and be editable (`IsEditable=true`). Returns JSON like\n`{"status":"Uploaded","path":"Systemorph/content/logo.png","bytes":4958}` on success, or an `Error: …` string otherwise.',
        {
            'path': ('string', None,
                "Target path including collection + filename, e.g. '@Systemorph/content/logo.png' or '@Doc/Architecture/content/diagrams/flow.svg'. The path is parsed as {nodePath}/{collection}/{filePath}."),
            'base64Content': ('string', None,
                'File content as base64-encoded bytes (no data:URI prefix; just the raw base64 payload).'),
        },
    ),
    'Search': (
        "Searches the mesh using GitHub-style query syntax. Returns {count, limit, truncated, results:[{path,name,nodeType,version,lastModified}]} — when 'truncated' is true there are more matches than returned; narrow the query or raise 'limit'.\n\nQuery terms (space-separated, all case-insensitive):\n  • field filters: nodeType:Agent, name:Acme, name:*sales* (wildcards), -status:Archived (negation), price:>100\n  • location: namespace:Doc (immediate children), namespace:Doc scope:descendants (recursive), path:Doc/Architecture (exact)\n  • scope values: descendants | ancestors | hierarchy | subtree | ancestorsandself\n  • sorting/projection: sort:name, sort:lastModified-desc, select:name,nodeType,icon\n  • free text terms ('laptop pricing') run semantic/vector search when available\nFull reference: read the 'tools-reference' MCP resource.",
        {
            'query': ('string', None,
                "Query string (e.g., 'nodeType:Agent', 'laptop', 'path:ACME scope:descendants', 'name:*sales*')"),
            'basePath': ('string?', 'null',
                'Base path to search from (e.g., @graph). Empty for all.'),
            'limit': ('int', '50',
                'Maximum number of results to return. Default 50, max 200.'),
        },
    ),
    'SearchChunks': (
        "Semantic search over INDEXED content chunks — the chunk-level companion to `Search`. Where node `Search` resolves a content hit up to its Document node and drops the chunk position, this returns the matching chunks WITH their (collectionPath, filePath, chunkIndex) so you can read the exact window or step through neighbours with `get_chunk`. Use it to FIND relevant passages and gather context; for whole-document reads (e.g. table extraction) use `Get` on the Document.\n\nChunking model: each indexed file is split into 1000-char windows with 150-char overlap, numbered by a 0-based chunk_index per file.\n\nTwo ways to scope the search:\n  • Anchored (default): pass `scope` as a node path — that path AND each ANCESTOR-prefix collection are searched (good when you don't know exactly which collection holds the content).\n  • Targeted: put `namespace:<node>/<collection>` (and optionally `scope:subtree|exact|ancestorsandself`) directly in the `query` to search ONE named collection. `scope:subtree` (the default when a namespace is given) checks only that collection and anything nested under it; `scope:exact` only the collection itself. Example: `namespace:ACME/content scope:subtree accrued benefit obligation`. The `namespace:` form wins and the `scope` parameter is ignored.\n\nReturns `{count, results:[{documentPath, collectionPath, filePath, chunkIndex, rank, snippet}]}` — `rank` is the 0-based best-first relevance order. When content indexing isn't enabled in this host, returns a `{count:0, message:…}` envelope rather than erroring.",
        {
            'query': ('string', None,
                'Free-text query, matched semantically against indexed chunk text. May also carry `namespace:<node>/<collection>` and `scope:subtree|exact|ancestorsandself` to target one collection.'),
            'scope': ('string?', 'null',
                "Node path to anchor the search at — this path AND each ancestor prefix are searched (e.g. '@ACME/Reports'). Ignored when the query carries a `namespace:` token. With neither a scope nor a namespace, an empty result with a hint is returned."),
            'limit': ('int', '20',
                'Maximum number of chunk hits to return (1-200, default 20). Not deduped by file.'),
        },
    ),
    'GetChunk': (
        "Reads ONE indexed content chunk by its 0-based index within a file, with prev/next links to step through the file's chunk sequence. Use after `search_chunks` (which gives the collectionPath/filePath/chunkIndex of a hit) to read the full 1000-char window and walk to adjacent chunks.\n\nReturns `{found, collectionPath, filePath, chunkIndex, text, prevIndex, nextIndex, totalChunks}` — `prevIndex` is null at index 0, `nextIndex` is null at the last chunk. A null chunk (out of range or file not indexed) returns `{found:false, totalChunks, message:…}` carrying the valid range.",
        {
            'collectionPath': ('string', None,
                "The content collection path the chunk belongs to (the 'collectionPath' from a search_chunks hit)."),
            'filePath': ('string', None,
                "The file path within the collection (the 'filePath' from a search_chunks hit)."),
            'chunkIndex': ('int', None,
                "0-based chunk index within the file (the 'chunkIndex' from a hit, or a prevIndex/nextIndex to step)."),
        },
    ),
    'Create': (
        'Creates a new node in the mesh. Pass a JSON MeshNode object. Required fields — validated up-front with a descriptive error before anything is written:\n  • id        — the node\'s own slug, NO slashes (e.g. "PricingTool"). The parent path goes in \'namespace\'; the node\'s path is derived as {namespace}/{id}.\n  • namespace — full parent path (e.g. "ACME/Projects"). Omit only for partition roots.\n  • name      — human-readable display title (shown as the page heading).\n  • nodeType  — the type definition that gives the node shape and views (e.g. "Markdown", "Code", "Organization"). Discover types with search \'nodeType:NodeType\'.\nRecommended: \'icon\' as an inline SVG starting with <svg, using currentColor. \'content\' must match the nodeType\'s schema — get \'@{ns}/schema/\' on a sibling to discover it.',
        {
            'node': ('string', None,
                'JSON MeshNode object to create (e.g., {"id": "NewOrg", "namespace": "ACME", "name": "New Org", "nodeType": "Organization", "content": {}})'),
        },
    ),
    'Update': (
        "Updates existing nodes in the mesh. Pass a JSON array of complete MeshNode objects. Always Get before Update — the entire node is replaced, not merged; a node missing 'nodeType' or 'content' is rejected with a descriptive error before anything is written. For small changes prefer Patch (field-level) or edit_content (text-level).",
        {
            'nodes': ('string', None,
                'JSON array of MeshNode objects with all fields (get existing node first, modify, then pass here)'),
        },
    ),
    'Patch': (
        'Partial update of a single node. Only the keys present in \'fields\' are changed; omitted keys preserve existing values. Patchable fields: name, description, icon, category, order, content, preRenderedHtml, mainNode — anything else (id, path, namespace, nodeType, version, created*/lastModified*) is REFUSED with an error naming it, so a field this tool cannot apply is never reported as patched; change those with Update. \'content\' deep-merges (RFC 7396): the nested keys you send are updated, the ones you omit are kept, and a null member deletes just that key — so you can change a single content field (e.g. {"content":{"logo":"…"}}) without resending the rest. Setting the whole \'content\' to null is rejected. Prefer this over Update for small edits like icon/name/category; for edits inside a long Markdown body or source file prefer edit_content.',
        {
            'path': ('string', None,
                'Path to the node (e.g., @User/rbuergi/my-node)'),
            'fields': ('string', None,
                'JSON object with ONLY the fields to change. Examples: {"icon": "<svg>...</svg>"}, {"name": "New Name"}, {"content":{"logo":"https://…"}} (deep-merges into existing content).'),
        },
    ),
    'EditContent': (
        "Anchored text edit on a node's content (Markdown body or Code source). Replaces oldText with newText — pass just the snippet to change plus enough surrounding context to make it unique, instead of re-sending the whole document. Fails with a descriptive error when the text isn't found or isn't unique. Preferred over patch for any edit inside a long document or source file (cheaper, and immune to truncation corrupting the rest of the content).",
        {
            'path': ('string', None,
                'Path to the node (e.g., @User/rbuergi/my-doc or @ACME/Story/Source/Story.cs)'),
            'oldText': ('string', None,
                'The exact text to replace — copy it verbatim from get, including whitespace and line breaks. Must match exactly once (or set replaceAll).'),
            'newText': ('string', None,
                'The replacement text.'),
            'replaceAll': ('bool', 'false',
                'Replace every occurrence instead of requiring a unique match. Default: false.'),
        },
    ),
    'Delete': (
        'Deletes one or more nodes from the mesh by path. Recursive: deleting a parent removes all descendants. To remove a subtree, just pass the root path — children do not need to be enumerated.',
        {
            'paths': ('string', None,
                'JSON array of path strings to delete (e.g., ["ACME/OldProject", "ACME/ArchivedTask"])'),
        },
    ),
    'Move': (
        "Moves a node and its descendants to a new path. Equivalent to the Move menu item. Requires Delete on the source namespace and Create on the target. Source and target are full paths (namespace + id), e.g. 'OrgA/Child' -> 'OrgB/Child'.",
        {
            'sourcePath': ('string', None,
                'Current path of the node (e.g., @OrgA/Child)'),
            'targetPath': ('string', None,
                'New path for the node (e.g., @OrgB/Child)'),
        },
    ),
    'Copy': (
        'Copies a node and all its descendants to a target namespace. Equivalent to the Copy menu item. Source ids are preserved; paths are rewritten under the target namespace.',
        {
            'sourcePath': ('string', None,
                'Current path of the node to copy (e.g., @OrgA/Child)'),
            'targetNamespace': ('string', None,
                'Target namespace to copy under (e.g., @OrgB)'),
            'force': ('bool', 'false',
                'Overwrite existing nodes at the target. Default: false.'),
        },
    ),
    'NavigateTo': (
        'Returns a URL to view a node in the MeshWeaver UI. The URL shape is `{baseUrl}/{path}` — the mesh path is appended directly to the base URL with no intermediate segment (no `/node/`) and without URL-escaping the path separators. Use this when you want to give a user a link to open in their browser. Call with an empty path to get the base URL on its own.',
        {
            'path': ('string?', 'null',
                'Path to navigate to (e.g., @Systemorph/FutuRe/EuropeRe). Leading `@` is stripped. Empty returns the base URL.'),
        },
    ),
    'GetDiagnostics': (
        "Returns compilation diagnostics for a NodeType (or any instance of one). Status is 'Ok' when the type compiled cleanly, 'Error' with details when it failed, 'Compiling' while a compile is in progress (with elapsedMs), or 'Unknown' when no compile has happened yet. Use after creating/updating a NodeType to verify it actually compiles — a NodeType that doesn't compile is not 'done'.",
        {
            'path': ('string', None,
                'Path to a NodeType (e.g., @Systemorph/SocialMedia/Profile) or to any instance of one'),
        },
    ),
    'Recycle': (
        "Recycles the hub at the given path by posting DisposeRequest. Forces a fresh hub initialization on the next access — use after fixing a broken NodeType, after editing the `sources` list, or whenever a grain is stuck in a cached bad state. Requires Update permission on the target node. Returns {status:'Recycled', path}. Wait ~100ms before the next access so the grain teardown completes.",
        {
            'path': ('string', None,
                "Path to the node (e.g., @Systemorph/SocialMedia/Profile). Use the NodeType path to recycle the whole type; use an instance path to recycle just that instance's hub."),
        },
    ),
}
