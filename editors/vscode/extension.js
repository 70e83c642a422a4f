// Starts `dlxc lsp` for .dlx files: every feature comes from the language server.
const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');

let client;

function activate(context) {
  const command = vscode.workspace.getConfiguration('dlx').get('server.path', 'dlxc');
  client = new LanguageClient(
    'dlx',
    'dlxc',
    { command, args: ['lsp'] },
    { documentSelector: [{ scheme: 'file', language: 'dlx' }, { scheme: 'untitled', language: 'dlx' }] },
  );
  client.start();
  context.subscriptions.push({ dispose: () => client && client.stop() });
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
