/// \file
/// byoc-layout: reads a DOT graph on stdin, lays it out with Graphviz `dot`, writes "plain" on stdout.
///
/// Graphviz is neither thread-safe nor interruptible, so the app runs it in this separate process
/// and kills it to cancel. Exit status: 0 on success, 2 when the input is not DOT, 3 when layout fails.

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

#include <cstdio>
#include <iostream>
#include <iterator>
#include <string>

int main() {
  std::string text((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
  GVC_t* context = gvContext();
  Agraph_t* graph = agmemread(text.c_str());
  if (!graph) {
    std::fprintf(stderr, "byoc-layout: the input is not a DOT graph\n");
    gvFreeContext(context);
    return 2;
  }
  if (gvLayout(context, graph, "dot") != 0) {
    std::fprintf(stderr, "byoc-layout: dot could not lay out the graph\n");
    agclose(graph);
    gvFreeContext(context);
    return 3;
  }
  gvRender(context, graph, "plain", stdout);
  gvFreeLayout(context, graph);
  agclose(graph);
  return gvFreeContext(context);
}
