"""Problem plugins: one sub-package per problem, each exporting PROBLEM."""
