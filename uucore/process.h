// PLACEHOLDER: the contract is being written.
#ifndef UUCORE_PROCESS_H_
#define UUCORE_PROCESS_H_
#endif  // UUCORE_PROCESS_H_
