//! Which of a name's C and C++ definitions a build compiles, when conditional compilation
//! gives it several (`#ifdef ZLIB_DEBUG … #define Tracev(x) … #else #define Tracev(x)
//! #endif`): each definition keeps its guard, the conditions of the `#if`, `#ifdef`,
//! `#elif` and `#else` branches it lies in ([`guard_of`]), and the linker evaluates
//! them ([`evaluate`]) for the default build of this kind of machine — GCC or Clang on
//! 64-bit Linux, no `-D` of its own — with the macros the project itself defines where
//! its own guards hold. A condition it cannot decide (a macro a system header may define,
//! a function-like macro, a character constant) is unknown, never guessed.

use tree_sitter::Node;

use crate::code::extract::Context;

/// Guards longer than this are not kept: [`UNKNOWN_GUARD`] stands for them.
const MAX_GUARD_BYTES: usize = 1024;

/// The guard of a definition whose conditions are too long to keep: one no evaluation
/// decides (the definition may or may not be built).
const UNKNOWN_GUARD: &str = "?";

/// The conditions under which `node` is compiled, outermost first, joined by `&&`
/// (each parenthesized; an `#else` branch's as the negation of the branches before it):
/// None when it is compiled whatever the configuration, [`UNKNOWN_GUARD`] when the
/// conditions are too long to keep.
pub(super) fn guard_of(node: Node, cx: &Context) -> Option<String> {
    let mut terms = Vec::new();
    let mut child = node;
    while let Some(parent) = cx.parent(child) {
        let is = |field: &str| {
            parent
                .child_by_field_name(field)
                .is_some_and(|n| n.id() == child.id())
        };
        let condition = match parent.kind() {
            "preproc_if" | "preproc_elif" => parent
                .child_by_field_name("condition")
                .filter(|_| !is("condition"))
                .map(|c| cx.text(c).to_string()),
            "preproc_ifdef" | "preproc_elifdef" => {
                parent
                    .child_by_field_name("name")
                    .filter(|_| !is("name"))
                    .map(|name| {
                        // `#ifndef`, `#  ifndef`, `#elifndef`.
                        let directive: String = parent
                            .child(0)
                            .map(|d| cx.text(d))
                            .unwrap_or_default()
                            .chars()
                            .filter(|c| !c.is_whitespace())
                            .collect();
                        let not = if directive.ends_with("ndef") { "!" } else { "" };
                        format!("{not}defined({})", cx.text(name))
                    })
            }
            _ => None,
        };
        if let Some(condition) = condition {
            terms.push(match is("alternative") {
                true => format!("!({condition})"),
                false => format!("({condition})"),
            });
        }
        child = parent;
    }
    terms.reverse();
    let guard = terms.join(" && ");
    match guard.len() {
        0 => None,
        n if n > MAX_GUARD_BYTES => Some(UNKNOWN_GUARD.to_string()),
        _ => Some(guard),
    }
}

/// The macros a guard ([`guard_of`]) requires not to be defined, by a term of its own
/// (`#ifndef X`, `#if !defined(X)`).
pub(crate) fn not_defined_in(guard: &str) -> impl Iterator<Item = &str> {
    guard.split("!defined(").skip(1).filter_map(|rest| {
        let name = rest.split(')').next()?.trim();
        (!name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
            .then_some(name)
    })
}

/// What a build knows of a macro a condition names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Macro {
    /// Defined, standing for this integer when that is known.
    Defined(Option<i64>),
    /// Defined by the project only where its own guards do not hold: not defined.
    Undefined,
    /// Not defined by the project nor by the compiler: `defined` is false, but a system
    /// header may give it a value (`UINT_MAX`), so its value is unknown.
    Absent,
    /// May or may not be defined.
    Unknown,
}

/// Whether a condition holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Holds {
    Yes,
    No,
    Unknown,
}

/// The value of the preprocessor condition `expr` (an `#if`'s, or a [`guard_of`]), with
/// `lookup` telling what each macro it names is. Undecidable parts are unknown: a
/// function-like macro (`__has_include(…)`, `__GNUC_PREREQ(4, 3)`), a character
/// constant, a macro of unknown value, text that does not parse.
pub(crate) fn evaluate(expr: &str, lookup: &mut dyn FnMut(&str) -> Macro) -> Holds {
    let Some(tokens) = tokens(expr) else {
        return Holds::Unknown;
    };
    let mut parser = Parser {
        tokens: &tokens,
        at: 0,
        lookup,
    };
    let value = parser.ternary();
    match (parser.at == tokens.len(), value) {
        (true, Some(0)) => Holds::No,
        (true, Some(_)) => Holds::Yes,
        _ => Holds::Unknown,
    }
}

/// The integer a macro stands for, from its definition's signature (`#define W 8`,
/// `#  define MAX_WBITS   15 /* 32K LZ77 window */`); None when it is not one integer.
pub(crate) fn macro_value(signature: &str) -> Option<i64> {
    let body = signature.trim_start().strip_prefix('#')?.trim_start();
    let body = body.strip_prefix("define")?;
    let mut words = body.split_whitespace();
    let name = words.next()?;
    if name.contains('(') {
        return None;
    }
    let rest: Vec<&str> = words.collect();
    let value = rest.join(" ");
    let value = value.split("/*").next()?.split("//").next()?.trim();
    let value = value.trim_start_matches('(').trim_end_matches(')').trim();
    match tokens(value)?.as_slice() {
        [Token::Number(n)] => Some(*n),
        [Token::Punct("-"), Token::Number(n)] => Some(n.wrapping_neg()),
        _ => None,
    }
}

/// What the compiler defines itself on the machine the default build is for (GCC or
/// Clang, C17, 64-bit Linux on x86-64), with the values a condition may compare.
pub(crate) fn predefined(name: &str) -> Option<Macro> {
    let value = match name {
        "__STDC__" | "__STDC_HOSTED__" | "__GNUC__" | "__linux__" | "__linux" | "linux"
        | "__unix__" | "__unix" | "unix" | "__x86_64__" | "__x86_64" | "__amd64__" | "__amd64"
        | "__LP64__" | "_LP64" | "__ELF__" | "__gnu_linux__" => 1,
        "__STDC_VERSION__" => 201710,
        "__CHAR_BIT__" => 8,
        "__SIZEOF_INT__" | "__SIZEOF_FLOAT__" => 4,
        "__SIZEOF_LONG__"
        | "__SIZEOF_POINTER__"
        | "__SIZEOF_SIZE_T__"
        | "__SIZEOF_LONG_LONG__"
        | "__SIZEOF_DOUBLE__" => 8,
        "__SIZEOF_SHORT__" => 2,
        "__BYTE_ORDER__" | "__ORDER_LITTLE_ENDIAN__" => 1234,
        "__ORDER_BIG_ENDIAN__" => 4321,
        // C or C++ depends on the file that includes a header.
        "__cplusplus" => return Some(Macro::Unknown),
        _ => return None,
    };
    Some(Macro::Defined(Some(value)))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Token<'a> {
    Number(i64),
    Ident(&'a str),
    Punct(&'static str),
    /// Anything else (`.` of `<stdint.h>`, a character constant's quote): a condition
    /// holding one outside a function-like macro's arguments is unknown.
    Other,
}

/// Operators of preprocessor conditions, longest first.
const PUNCTS: &[&str] = &[
    "&&", "||", "==", "!=", "<=", ">=", "<<", ">>", "(", ")", "!", "~", "-", "+", "*", "/", "%",
    "<", ">", "&", "^", "|", "?", ":", ",",
];

/// The tokens of a condition, comments and line continuations skipped; None for a
/// number that is not one.
fn tokens(text: &str) -> Option<Vec<Token<'_>>> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let rest = &text[i..];
        let b = bytes[i];
        if b.is_ascii_whitespace() || b == b'\\' {
            i += 1;
        } else if rest.starts_with("/*") {
            i += rest.find("*/").map_or(rest.len(), |end| end + 2);
        } else if rest.starts_with("//") {
            i += rest.find('\n').unwrap_or(rest.len());
        } else if b.is_ascii_digit() {
            let len = rest
                .find(|c: char| !c.is_ascii_alphanumeric())
                .unwrap_or(rest.len());
            out.push(Token::Number(number(&rest[..len])?));
            i += len;
        } else if b.is_ascii_alphabetic() || b == b'_' {
            let len = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            out.push(Token::Ident(&rest[..len]));
            i += len;
        } else if let Some(punct) = PUNCTS.iter().find(|p| rest.starts_with(**p)) {
            out.push(Token::Punct(punct));
            i += punct.len();
        } else {
            out.push(Token::Other);
            i += rest.chars().next().map_or(1, char::len_utf8);
        }
    }
    Some(out)
}

/// An integer literal (`8`, `0x10`, `017`, `1234UL`).
fn number(text: &str) -> Option<i64> {
    let digits = text.trim_end_matches(['u', 'U', 'l', 'L']);
    let (digits, radix) = match digits.get(..2) {
        Some("0x" | "0X") => (&digits[2..], 16),
        _ if digits.len() > 1 && digits.starts_with('0') => (&digits[1..], 8),
        _ => (digits, 10),
    };
    u64::from_str_radix(digits, radix).ok().map(|v| v as i64)
}

/// Precedence climbing over a condition's tokens; a value of None is unknown.
struct Parser<'t, 'l> {
    tokens: &'t [Token<'t>],
    at: usize,
    lookup: &'l mut dyn FnMut(&str) -> Macro,
}

/// Binary operators by precedence, loosest first (`?:` is [`Parser::ternary`]'s).
const LEVELS: &[&[&str]] = &[
    &["||"],
    &["&&"],
    &["|"],
    &["^"],
    &["&"],
    &["==", "!="],
    &["<", ">", "<=", ">="],
    &["<<", ">>"],
    &["+", "-"],
    &["*", "/", "%"],
];

impl<'t> Parser<'t, '_> {
    fn peek(&self) -> Option<Token<'t>> {
        self.tokens.get(self.at).copied()
    }

    fn eat(&mut self, punct: &str) -> bool {
        let found = matches!(self.peek(), Some(Token::Punct(p)) if p == punct);
        self.at += usize::from(found);
        found
    }

    fn ternary(&mut self) -> Option<i64> {
        let condition = self.binary(0);
        if !self.eat("?") {
            return condition;
        }
        let yes = self.ternary();
        if !self.eat(":") {
            self.at = self.tokens.len() + 1;
            return None;
        }
        let no = self.ternary();
        match condition {
            Some(0) => no,
            Some(_) => yes,
            None if yes == no => yes,
            None => None,
        }
    }

    fn binary(&mut self, level: usize) -> Option<i64> {
        let Some(ops) = LEVELS.get(level) else {
            return self.unary();
        };
        let mut left = self.binary(level + 1);
        loop {
            let Some(&op) = ops.iter().find(|op| self.peek() == Some(Token::Punct(op))) else {
                return left;
            };
            self.at += 1;
            let right = self.binary(level + 1);
            left = apply(op, left, right);
        }
    }

    fn unary(&mut self) -> Option<i64> {
        if self.eat("!") {
            return self.unary().map(|v| i64::from(v == 0));
        }
        if self.eat("-") {
            return self.unary().map(i64::wrapping_neg);
        }
        if self.eat("+") {
            return self.unary();
        }
        if self.eat("~") {
            return self.unary().map(|v| !v);
        }
        self.primary()
    }

    fn primary(&mut self) -> Option<i64> {
        let token = self.peek();
        self.at += 1;
        match token? {
            Token::Number(n) => Some(n),
            Token::Punct("(") => {
                let value = self.ternary();
                if !self.eat(")") {
                    self.at = self.tokens.len() + 1;
                    return None;
                }
                value
            }
            Token::Ident("defined") => {
                let parens = self.eat("(");
                let Some(Token::Ident(name)) = self.peek() else {
                    self.at = self.tokens.len() + 1;
                    return None;
                };
                self.at += 1;
                if parens && !self.eat(")") {
                    self.at = self.tokens.len() + 1;
                    return None;
                }
                match (self.lookup)(name) {
                    Macro::Defined(_) => Some(1),
                    Macro::Undefined | Macro::Absent => Some(0),
                    Macro::Unknown => None,
                }
            }
            Token::Ident(name) => {
                if self.peek() == Some(Token::Punct("(")) {
                    // A function-like macro (`__has_include(<x.h>)`): skip its arguments.
                    let mut depth = 0;
                    while let Some(t) = self.peek() {
                        self.at += 1;
                        match t {
                            Token::Punct("(") => depth += 1,
                            Token::Punct(")") => {
                                depth -= 1;
                                if depth == 0 {
                                    break;
                                }
                            }
                            _ => {}
                        }
                    }
                    return None;
                }
                match (self.lookup)(name) {
                    Macro::Defined(value) => value,
                    // An identifier no macro stands for is 0 in a condition.
                    Macro::Undefined => Some(0),
                    Macro::Absent | Macro::Unknown => None,
                }
            }
            Token::Punct(_) | Token::Other => {
                self.at = self.tokens.len() + 1;
                None
            }
        }
    }
}

/// `left op right`, each known or not: `&&` and `||` are known when one side settles
/// them (`0 && ?` is 0, `1 || ?` is 1).
fn apply(op: &str, left: Option<i64>, right: Option<i64>) -> Option<i64> {
    match op {
        "&&" => match (left, right) {
            (Some(0), _) | (_, Some(0)) => Some(0),
            (Some(_), Some(_)) => Some(1),
            _ => None,
        },
        "||" => match (left, right) {
            (Some(a), _) if a != 0 => Some(1),
            (_, Some(b)) if b != 0 => Some(1),
            (Some(_), Some(_)) => Some(0),
            _ => None,
        },
        _ => {
            let (a, b) = (left?, right?);
            Some(match op {
                "|" => a | b,
                "^" => a ^ b,
                "&" => a & b,
                "==" => i64::from(a == b),
                "!=" => i64::from(a != b),
                "<" => i64::from(a < b),
                ">" => i64::from(a > b),
                "<=" => i64::from(a <= b),
                ">=" => i64::from(a >= b),
                "<<" => a.checked_shl(u32::try_from(b).ok()?)?,
                ">>" => a.checked_shr(u32::try_from(b).ok()?)?,
                "+" => a.wrapping_add(b),
                "-" => a.wrapping_sub(b),
                "*" => a.wrapping_mul(b),
                "/" => a.checked_div(b)?,
                "%" => a.checked_rem(b)?,
                _ => return None,
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `expr` where the project defines `DEBUG_ON` (value 1) and `W` (8), leaves
    /// `ZLIB_DEBUG` undefined, and does not know `MAYBE`.
    fn eval(expr: &str) -> Holds {
        evaluate(expr, &mut |name| match name {
            "DEBUG_ON" => Macro::Defined(Some(1)),
            "W" => Macro::Defined(Some(8)),
            "EMPTY" => Macro::Defined(None),
            "ZLIB_DEBUG" => Macro::Undefined,
            "MAYBE" => Macro::Unknown,
            other => predefined(other).unwrap_or(Macro::Absent),
        })
    }

    #[test]
    fn conditions_are_decided_where_the_macros_they_name_are_known() {
        for (expr, holds) in [
            ("defined(DEBUG_ON)", Holds::Yes),
            ("defined DEBUG_ON", Holds::Yes),
            ("!defined(ZLIB_DEBUG)", Holds::Yes),
            ("defined(ZLIB_DEBUG)", Holds::No),
            ("defined(_WIN32)", Holds::No),
            ("defined(__STDC__) || defined(__cplusplus)", Holds::Yes),
            ("defined(_WIN32) && defined(MAYBE)", Holds::No),
            ("defined(MAYBE)", Holds::Unknown),
            ("W == 8", Holds::Yes),
            ("W == 4", Holds::No),
            ("(W) >= 8 && __STDC_VERSION__ >= 199901L", Holds::Yes),
            ("ZLIB_DEBUG", Holds::No),
            ("!ZLIB_DEBUG", Holds::Yes),
            // A system header may define what the project does not.
            ("UINT_MAX == 0xffffffff", Holds::Unknown),
            ("EMPTY", Holds::Unknown),
            ("__has_include(<stdint.h>)", Holds::Unknown),
            ("__has_include(<stdint.h>) || 1", Holds::Yes),
            ("0 && __has_include(<stdint.h>)", Holds::No),
            ("DEBUG_ON ? W == 8 : 0", Holds::Yes),
            ("MAYBE ? 1 : 1", Holds::Yes),
            (
                "1 /* a comment */ && \\\n defined(DEBUG_ON) // and another",
                Holds::Yes,
            ),
            (
                "0x10 == 16 && 010 == 8 && 1 << 4 == 16 && -1 < 0 && ~0 == -1",
                Holds::Yes,
            ),
            ("1 / 0", Holds::Unknown),
            ("'a' == 97", Holds::Unknown),
            ("(1", Holds::Unknown),
            (UNKNOWN_GUARD, Holds::Unknown),
            ("1 2", Holds::Unknown),
            ("", Holds::Unknown),
        ] {
            assert_eq!(eval(expr), holds, "{expr}");
        }
    }

    #[test]
    fn a_macros_value_is_the_integer_its_definition_gives() {
        assert_eq!(macro_value("#define W 8"), Some(8));
        assert_eq!(
            macro_value("#  define MAX_WBITS   15 /* 32K LZ77 window */"),
            Some(15)
        );
        assert_eq!(macro_value("#define N (-1)"), Some(-1));
        assert_eq!(macro_value("#define X 0x20UL"), Some(32));
        assert_eq!(macro_value("#define STDC"), None);
        assert_eq!(macro_value("#define local static"), None);
        assert_eq!(macro_value("#define F(x) 1"), None);
        assert_eq!(macro_value("int x = 8;"), None);
    }

    #[test]
    fn a_guard_is_the_conditions_of_the_branches_a_definition_lies_in() {
        let src = "\
#ifdef ZLIB_DEBUG
#  define Trace(x) fprintf x
#else
#  define Trace(x)
#endif
#ifndef NO_SIZE_T
#  if defined(STDC) && W == 8
     typedef unsigned long z_size_t;
#  elif defined(OTHER)
     typedef unsigned z_size_t;
#  else
     typedef int z_size_t;
#  endif
#endif
int always(void) { return 0; }
#if defined(A_LONG_CONDITION) LONG_TAIL
int guarded(void) { return 0; }
#endif
";
        // The last condition is over 1 KB: `|| defined(X0) || defined(X1) …`.
        let tail: String = (0..100).map(|i| format!(" || defined(X{i})")).collect();
        let src = src.replace(" LONG_TAIL", &tail);
        let guards = crate::code::lang::guards("a.h", &src);
        assert_eq!(
            guards,
            [
                (
                    "Trace".to_string(),
                    Some("(defined(ZLIB_DEBUG))".to_string())
                ),
                (
                    "Trace".to_string(),
                    Some("!(defined(ZLIB_DEBUG))".to_string())
                ),
                (
                    "z_size_t".to_string(),
                    Some("(!defined(NO_SIZE_T)) && (defined(STDC) && W == 8)".to_string())
                ),
                (
                    "z_size_t".to_string(),
                    Some(
                        "(!defined(NO_SIZE_T)) && !(defined(STDC) && W == 8) && (defined(OTHER))"
                            .to_string()
                    )
                ),
                (
                    "z_size_t".to_string(),
                    Some(
                        "(!defined(NO_SIZE_T)) && !(defined(STDC) && W == 8) && !(defined(OTHER))"
                            .to_string()
                    )
                ),
                ("always".to_string(), None),
                ("guarded".to_string(), Some(UNKNOWN_GUARD.to_string())),
            ]
        );
    }
}
