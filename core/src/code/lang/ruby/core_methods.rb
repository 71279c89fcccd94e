# The names of the methods Ruby's core and common standard library define, one per line,
# sorted: `ruby core_methods.rb > core_methods.txt` (made with Ruby 3.1.2, Debian
# bookworm). The linker never takes a call of one of these names on a value of unknown
# class for the one project method of that name (see `link.rs`, `unique_member`).
#
# `ruby core_methods.rb values > value_methods.txt`: the public methods of the classes
# that values most often hold (Object with Kernel, Array, Hash, String, Symbol, numbers,
# Proc, nil, Range, IO, Enumerable, Comparable). A value named in one word is not taken
# to be of the class its name says for a call of one of these (`body.each`, `files.call`:
# see `link.rs`, `type_named_like`).
#
# `ruby core_methods.rb classes > core_classes.txt`: the name of every class and module
# they define (`Struct`, `StandardError`, `Comparable`, `Net::HTTP`). A class that extends
# or mixes in one of these has from it only the methods above (see `link.rs`,
# `library_type`).
if ARGV == ["values"]
  classes = [Object, Kernel, BasicObject, Array, Hash, String, Symbol, Integer, Float,
             Numeric, Proc, NilClass, TrueClass, FalseClass, Range, IO, Enumerable, Comparable]
  puts classes.flat_map { |c| c.public_instance_methods }.map(&:to_s).uniq.sort
  exit
end
%w[set date stringio pathname uri optparse time json yaml tempfile fileutils securerandom digest forwardable logger erb cgi socket zlib strscan ostruct monitor shellwords open3 net/http delegate singleton observer timeout tmpdir benchmark pp prettyprint English etc io/console bigdecimal].each { |l| begin; require l; rescue LoadError; end }
if ARGV == ["classes"]
  INTERNAL_MODULES = /\A(RubyVM|Gem|Bundler|DidYouMean|ErrorHighlight|SyntaxSuggest)(::|\z)/
  puts ObjectSpace.each_object(Module).map(&:name).compact
    .reject { |n| n.match?(INTERNAL_MODULES) || n.start_with?("#") }
    .uniq.sort
  exit
end
names = {}
# The interpreter's own machinery and RubyGems hold no library's values.
INTERNAL = /\A(RubyVM|Gem|Bundler|DidYouMean|ErrorHighlight|SyntaxSuggest)(::|\z)/
ObjectSpace.each_object(Module) do |m|
  next if m.name.nil? || m.name.match?(INTERNAL)
  (m.instance_methods(false) + m.private_instance_methods(false) + m.protected_instance_methods(false)).each { |n| names[n.to_s] = true }
  (m.singleton_methods(false) + m.singleton_class.private_instance_methods(false)).each { |n| names[n.to_s] = true } rescue nil
end
puts names.keys.sort
