/* The hidden lengths of a Fortran routine's character arguments, which
 * gfortran's convention appends after the other arguments: declared and
 * passed when a test is compiled with -DSTRLEN=type (size_t as gfortran's,
 * or int as f2c's), absent otherwise (OpenBLAS's f77blas.h). Declarations
 * end with STRLENS(n), calls with LENGTHS(n), n the number of characters. */
#ifndef FORTRAN_LENGTHS_H
#define FORTRAN_LENGTHS_H
#ifdef STRLEN
#include <stddef.h>
#define STRLENS(n) STRLENS_##n
#define STRLENS_1 , STRLEN
#define STRLENS_2 , STRLEN, STRLEN
#define STRLENS_3 , STRLEN, STRLEN, STRLEN
#define STRLENS_4 , STRLEN, STRLEN, STRLEN, STRLEN
#define LENGTHS(n) LENGTHS_##n
#define LENGTHS_1 , 1
#define LENGTHS_2 , 1, 1
#define LENGTHS_3 , 1, 1, 1
#define LENGTHS_4 , 1, 1, 1, 1
#else
#define STRLENS(n)
#define LENGTHS(n)
#endif
#endif
