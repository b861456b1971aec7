/* rankmap_map_traffic from an installed rankmap, in C99: message counts beside
 * the bytes on two hosts of two cores with links, and a present order that
 * splits the chatty pair 0-1 (1,000 messages of 8 bytes). Prints the verdict,
 * T of the present order and of the result in microseconds, and whether 0 and
 * 1 share a host. */
#include <rankmap/rankmap.h>
#include <stdio.h>

int main(void) {
  const int64_t xadj[] = {0, 2, 3, 5, 6};
  const int32_t adjncy[] = {1, 2, 0, 0, 3, 2};
  const double adjwgt[] = {8000, 100000, 8000, 100000, 10, 10};
  const double adjmsg[] = {1000, 1, 1000, 1, 1, 1};
  const int32_t present[] = {0, 2, 1, 3};
  rankmap_choice choice;
  rankmap_choice_init(&choice);
  choice.present = present;
  rankmap_report report;
  int32_t mapping[4];
  char err[256];
  if (rankmap_map_traffic("tleaf 2 2 25Gbps:1us 2 40GBps:0.5us", 4, xadj,
                          adjncy, adjwgt, adjmsg, NULL, NULL, NULL, &choice,
                          mapping, NULL, &report, err, sizeof err) != 0) {
    fprintf(stderr, "%s\n", err);
    return 1;
  }
  printf("%s (%s): T %.2f us -> %.2f us, 0 and 1 %s\n", report.verdict_name,
         report.objective, report.present_cost * 1e6, report.chosen_cost * 1e6,
         mapping[0] / 2 == mapping[1] / 2 ? "together" : "apart");
  return report.verdict == RANKMAP_PRESENT_REPLACED ? 0 : 1;
}
