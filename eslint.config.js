import js from '@eslint/js'
import tseslint from 'typescript-eslint'

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', '.tap/', 'coverage/', 'test-output/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error'
    }
  },
  {
    files: ['src/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        { group: ['fastify', 'fastify/*', '@fastify/*', 'node:*', 'fs', 'path', 'http', 'net'], message: 'src/domain is pure: no Fastify and no I/O.' }
      ] }]
    }
  },
  {
    files: ['src/control/**/*.ts', 'src/core/**/*.ts', 'routes/**/*.ts'],
    rules: {
      'no-restricted-syntax': ['error', {
        selector: 'TSAsExpression > MemberExpression.expression[object.name=/^(call|request|req)$/][property.name=/^(params|query|body)$/]',
        message: 'Request parts are typed from their TypeBox schemas (Static<>, controlRoute infers them): no casts.'
      }]
    }
  }
)
