/**
 * A tree-sitter grammar for dlxc's `.dlx` models, for highlighting and outlines.
 *
 * The compiler's grammar is grammar/dlx.pest; this one is looser on purpose: a
 * declaration is its keyword, its name and the tokens and bracketed groups up to the
 * next declaration, so that every valid model parses without an ERROR node and a
 * half-typed one still highlights. A `let` clause inside a family shows as a `let`
 * declaration of its own (highlighting is the same).
 */
module.exports = grammar({
  name: 'dlx',

  extras: $ => [/\s/, $.comment],

  word: $ => $.identifier,

  rules: {
    source_file: $ => repeat($._declaration),

    _declaration: $ => choice(
      $.param_declaration,
      $.let_declaration,
      $.fn_declaration,
      $.item_declaration,
      $.option_declaration,
      $.force_declaration,
      $.objective,
      $.canvas_declaration,
      $.assert_declaration,
      $.symmetry_declaration,
    ),

    param_declaration: $ => seq('param', field('name', $.identifier), repeat($._item)),
    let_declaration: $ => seq('let', field('name', $._pattern), repeat($._item)),
    fn_declaration: $ => seq(
      'fn',
      field('name', $.identifier),
      field('parameters', $.parameters),
      repeat($._item),
    ),
    parameters: $ => seq('(', optional(seq($.identifier, repeat(seq(',', $.identifier)), optional(','))), ')'),
    item_declaration: $ => seq(
      optional(choice('secondary', 'colored')),
      'item',
      field('name', $.identifier),
      repeat($._item),
    ),
    option_declaration: $ => seq('option', field('name', $.identifier), repeat($._item)),
    force_declaration: $ => seq('force', field('family', $.identifier), repeat($._item)),
    objective: $ => seq(choice('minimize', 'maximize'), choice('count', 'cost')),
    canvas_declaration: $ => seq('canvas', repeat($._item)),
    assert_declaration: $ => seq('assert', repeat($._item)),
    symmetry_declaration: $ => seq('symmetry', repeat($._item)),

    _pattern: $ => choice($.identifier, $.tuple_pattern),
    tuple_pattern: $ => seq('(', $._pattern, repeat(seq(',', $._pattern)), optional(','), ')'),

    _item: $ => choice(
      $.call,
      $.identifier,
      $.integer,
      $.string,
      $.block_string,
      $.boolean,
      $.keyword,
      $.operator,
      ',',
      ':',
      $.parenthesized,
      $.bracketed,
      $.braced,
    ),

    call: $ => prec(1, seq(field('function', $.identifier), $.parenthesized)),
    parenthesized: $ => seq('(', repeat($._item), ')'),
    bracketed: $ => seq('[', repeat($._item), ']'),
    braced: $ => seq('{', repeat($._item), '}'),

    keyword: $ => choice(
      'for', 'in', 'where', 'covers', 'cost', 'paint', 'and', 'or', 'not', 'if', 'then', 'else',
    ),

    operator: $ => choice(
      '..=', '..', '==', '!=', '<=', '>=', '->', '<', '>', '=', '+', '-', '*', '/', '%', '|', '&',
    ),

    boolean: $ => choice('true', 'false'),
    integer: $ => /[0-9][0-9_]*/,
    string: $ => /"([^"\\\n]|\\[^\n])*"/,
    block_string: $ => token(seq('"""', repeat(choice(/[^"]/, /"[^"]/, /""[^"]/)), '"""')),
    identifier: $ => /[A-Za-z_][A-Za-z0-9_]*/,
    comment: $ => token(seq('#', /.*/)),
  },
});
