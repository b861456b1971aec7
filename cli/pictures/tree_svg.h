// The topology tree with the processes a mapping put on it, as SVG.
//
// Every inner node is a labelled box: its kind (hwloc's merged kinds wrap at
// '+'), its cost (and "pair costs" where a child-pair matrix prices its
// children), its host or hosts, its leaves and how many processes they
// hold. A node whose children are all leaves is drawn as one box listing
// them ("16 x PU") and the processes on them as ranges ("0-7, 12").
//
// Legible from 8 to 100,000 leaves at a normal window width: when the fully
// drawn tree would need more than `max_columns` boxes side by side, runs of
// siblings of the same shape (kinds, costs, arities all the way down) are
// drawn once and the rest of the run folded into one box ("x 15 more like
// this") holding their leaves and processes; a node with too many different
// children draws the first and folds the others; a node left no room stands
// for its subtree as one bottom box. The boxes without children
// (bottom, folded and leaf boxes) cover every leaf exactly once, so every
// process is accounted for: their data-processes attributes sum to the
// number of processes, each box's <title> lists its processes in full.
//
// Structure for tests and tools: each box is <g class="box KIND"
// data-node="id" data-count="siblings" data-leaves="begin,end"
// data-processes="n">, KIND one of inner, bottom, folded, leaves; edges are
// <line class="edge">. The root <svg> has width, height and viewBox.
//
//   std::string svg = TreeSvg(tree, mapping, {.max_columns = 8});
#ifndef RANKMAP_CLI_PICTURES_TREE_SVG_H_
#define RANKMAP_CLI_PICTURES_TREE_SVG_H_

#include <cstdint>
#include <string>

#include "core/model/mapping.h"
#include "topology/tree.h"

namespace rankmap::cli::pictures {

struct TreePictureOptions {
  // Boxes side by side on the widest row (about 170 px each).
  int32_t max_columns = 8;
  // Bottom and leaf boxes are tinted by their ancestor at this depth.
  int32_t group_depth = 1;
};

// `mapping` holds a valid leaf per process (any number per leaf). O(nodes +
// processes log processes).
std::string TreeSvg(const topology::Tree& tree, const core::Mapping& mapping,
                    const TreePictureOptions& options = {});

}  // namespace rankmap::cli::pictures

#endif  // RANKMAP_CLI_PICTURES_TREE_SVG_H_
