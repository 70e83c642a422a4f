; Highlights of .dlx models, for editors that read tree-sitter queries.

(comment) @comment
(string) @string
(block_string) @string
(integer) @number
(boolean) @boolean

[
  "param" "let" "fn" "item" "option" "force" "secondary" "colored"
  "minimize" "maximize" "canvas" "assert" "symmetry" "count" "cost"
] @keyword

(keyword) @keyword
(operator) @operator

["(" ")" "[" "]" "{" "}"] @punctuation.bracket
["," ":"] @punctuation.delimiter

(param_declaration name: (identifier) @constant)
(let_declaration name: (identifier) @variable)
(fn_declaration name: (identifier) @function)
(parameters (identifier) @variable.parameter)
(item_declaration name: (identifier) @type)
(option_declaration name: (identifier) @type)
(force_declaration family: (identifier) @type)

((call function: (identifier) @function.builtin)
 (#match? @function.builtin "^(len|min|max|abs|sum|all|any|keys|values|enumerate|sorted|union|disjoint|str|int|list|set|chars|zip|ord|chr|shape|normalize|rotate|reflect|rotations|symmetries|variants|shift|size|neighbors|hex_rotations|hex_symmetries|hex_neighbors|tri_rotations|tri_symmetries|tri_neighbors|combinations|permutations|subsets)$"))
(call function: (identifier) @function.call)

(identifier) @variable
