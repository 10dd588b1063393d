/** Student */
export function StudentPage() {
  return <h1>Student</h1>;
}
