// Starts `rulelang lsp` (the command in the setting rulelang.command) for the YAML files of a workspace.
// The server decides what each file is (a game, an include, a mod, a scenario, a policy) and checks it.
const vscode = require("vscode");
const { LanguageClient, TransportKind } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const [command, ...args] = vscode.workspace.getConfiguration("rulelang").get("command");
  client = new LanguageClient(
    "rulelang",
    "rulelang",
    { command, args, transport: TransportKind.stdio },
    { documentSelector: [{ scheme: "file", language: "yaml" }] }
  );
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
