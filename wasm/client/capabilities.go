package client

import (
	"github.com/kandev/lsp/wasm/features"
	"github.com/kandev/lsp/wasm/jsonlite"
)

// workspaceCapabilities are the workspace capabilities of the editing
// features: workspace edits (applyEdit, documentChanges, and exactly the
// file operations the page supports), executeCommand, the refresh
// requests the client honours, and the will/did file-operation messages
// of the page's own creates, renames and deletes (WillChangeFiles).
func workspaceCapabilities(ops features.FileOps) jsonlite.Raw {
	b := []byte(`"applyEdit":true,"workspaceEdit":{"documentChanges":true,"failureHandling":"abort","snippetEditSupport":true,"resourceOperations":`)
	b = jsonlite.AppendStrings(b, ops.ResourceOperations())
	b = append(b, `},"executeCommand":{},"semanticTokens":{"refreshSupport":true},"inlayHint":{"refreshSupport":true},"symbol":{"dynamicRegistration":true,"symbolKind":{"valueSet":[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26]},"tagSupport":{"valueSet":[1]},"resolveSupport":{"properties":["location.range"]}},"codeLens":{"refreshSupport":true},"foldingRange":{"refreshSupport":true},"textDocumentContent":{"dynamicRegistration":true},`+
		`"diagnostics":{"refreshSupport":true},"didChangeWatchedFiles":{"dynamicRegistration":true,"relativePatternSupport":true},`+
		`"fileOperations":{"dynamicRegistration":true,"didCreate":true,"willCreate":true,"didRename":true,"willRename":true,"didDelete":true,"willDelete":true}`...)
	return b
}

// textDocumentCapabilities are the editor features this client wires, as
// sent in initialize: document sync with didSave, diagnostics, and the
// completion (with resolve), hover, definition, references, signature-help
// and full semantic-token providers, code actions, rename, formatting,
// document symbols, folding, highlights, inlay hints, type, implementation
// and declaration navigation, code lenses, document links, document colors,
// linked editing ranges, selection ranges and semantic tokens by range and
// by delta (dynamic registration accepted for each, so servers that only
// register dynamically still offer them).
const textDocumentCapabilities = `{"synchronization":{"dynamicRegistration":true,"didSave":true},` +
	`"publishDiagnostics":{"relatedInformation":true,"tagSupport":{"valueSet":[1,2]},"codeDescriptionSupport":true,"dataSupport":true},` +
	`"diagnostic":{"dynamicRegistration":true,"relatedDocumentSupport":true,"markupMessageSupport":true},` +
	`"codeAction":{"dynamicRegistration":true,"isPreferredSupport":true,"disabledSupport":true,"dataSupport":true,"resolveSupport":{"properties":["edit"]},` +
	`"codeActionLiteralSupport":{"codeActionKind":{"valueSet":["","quickfix","refactor","refactor.extract","refactor.inline","refactor.rewrite","source","source.organizeImports","source.fixAll"]}},"documentationSupport":true,"tagSupport":{"valueSet":[1]}},` +
	`"rename":{"dynamicRegistration":true,"prepareSupport":true},` +
	`"formatting":{"dynamicRegistration":true},"rangeFormatting":{"dynamicRegistration":true,"rangesSupport":true},"onTypeFormatting":{"dynamicRegistration":true},` +
	`"documentSymbol":{"dynamicRegistration":true,"hierarchicalDocumentSymbolSupport":true,"tagSupport":{"valueSet":[1]},` +
	`"symbolKind":{"valueSet":[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26]}},` +
	`"foldingRange":{"dynamicRegistration":true,"lineFoldingOnly":true,"foldingRangeKind":{"valueSet":["comment","imports","region"]}},` +
	`"documentHighlight":{"dynamicRegistration":true},` +
	`"inlayHint":{"dynamicRegistration":true,"resolveSupport":{"properties":["tooltip","textEdits","label.tooltip","label.location"]}},` +
	`"typeDefinition":{"dynamicRegistration":true,"linkSupport":true},"implementation":{"dynamicRegistration":true,"linkSupport":true},` +
	`"declaration":{"dynamicRegistration":true,"linkSupport":true},` +
	`"callHierarchy":{"dynamicRegistration":true},"typeHierarchy":{"dynamicRegistration":true},` +
	`"codeLens":{"dynamicRegistration":true},"documentLink":{"dynamicRegistration":true,"tooltipSupport":true},` +
	`"colorProvider":{"dynamicRegistration":true},"linkedEditingRange":{"dynamicRegistration":true},"selectionRange":{"dynamicRegistration":true},` +
	`"inlineCompletion":{"dynamicRegistration":true},` +
	`"completion":{"dynamicRegistration":true,"contextSupport":true,"completionItem":{"snippetSupport":true,"insertReplaceSupport":true,` +
	`"documentationFormat":["markdown","plaintext"],"labelDetailsSupport":true,"deprecatedSupport":true,"tagSupport":{"valueSet":[1]},` +
	`"resolveSupport":{"properties":["documentation","detail","additionalTextEdits"]}},` +
	`"completionItemKind":{"valueSet":[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25]},` +
	`"completionList":{"itemDefaults":["editRange","insertTextFormat","commitCharacters","data"],"applyKindSupport":true}},` +
	`"hover":{"dynamicRegistration":true,"contentFormat":["markdown","plaintext"]},` +
	`"definition":{"dynamicRegistration":true,"linkSupport":true},` +
	`"references":{"dynamicRegistration":true},` +
	`"signatureHelp":{"dynamicRegistration":true,"contextSupport":true,"signatureInformation":{"documentationFormat":["markdown","plaintext"],` +
	`"parameterInformation":{"labelOffsetSupport":true},"activeParameterSupport":true}},` +
	`"semanticTokens":{"dynamicRegistration":true,"requests":{"range":true,"full":{"delta":true}},` +
	`"tokenTypes":["namespace","type","class","enum","interface","struct","typeParameter","parameter","variable","property","enumMember","event","function","method","macro","keyword","modifier","comment","string","number","regexp","operator","decorator"],` +
	`"tokenModifiers":["declaration","definition","readonly","static","deprecated","abstract","async","modification","documentation","defaultLibrary"],` +
	`"formats":["relative"],"overlappingTokenSupport":false,"multilineTokenSupport":false}}`
