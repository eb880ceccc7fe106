# bone per vertex of fins.obj
0
0
0
0

1 # fin
1
1
1
